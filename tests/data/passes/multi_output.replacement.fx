graph():
    %x : [#users=2] = placeholder[target=x]
    %sigmoid_default : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%x,), kwargs = {})
    %tanh_default : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%x,), kwargs = {})
    return (sigmoid_default, tanh_default)
