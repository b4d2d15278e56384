graph():
    %x : [#users=1] = placeholder[target=x]
    %y : [#users=1] = placeholder[target=y]
    %sigmoid_default : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%x,), kwargs = {})
    %tanh_default : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%y,), kwargs = {})
    return (sigmoid_default, tanh_default)
