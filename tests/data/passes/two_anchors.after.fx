graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %sigmoid_1 : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%y_1,), kwargs = {})
    %tanh_default : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%x_1,), kwargs = {})
    %sigmoid_default : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%y_1,), kwargs = {})
    return (tanh_default, sigmoid_default, sigmoid_1)
