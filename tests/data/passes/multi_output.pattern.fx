graph():
    %x : [#users=1] = placeholder[target=x]
    %neg_default : [#users=2] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    %relu_default : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%neg_default,), kwargs = {})
    %abs_default : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%neg_default,), kwargs = {})
    return (relu_default, abs_default)
