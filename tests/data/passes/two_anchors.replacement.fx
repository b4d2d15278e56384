graph():
    %x : [#users=1] = placeholder[target=x]
    %y : [#users=1] = placeholder[target=y]
    %tanh_default : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%x,), kwargs = {})
    %sigmoid_default : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%y,), kwargs = {})
    return (tanh_default, sigmoid_default)
