graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %sigmoid : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%x_1,), kwargs = {})
    %tanh : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%y_1,), kwargs = {})
    %sigmoid_1 : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%y_1,), kwargs = {})
    return (sigmoid, tanh, sigmoid_1)
