graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %relu_default : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x_1,), kwargs = {})
    %relu_default_1 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%relu_default,), kwargs = {})
    return relu_default_1
