graph():
    %x : [#users=1] = placeholder[target=x]
    %relu_default : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    return relu_default
