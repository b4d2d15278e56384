graph():
    %x : [#users=1] = placeholder[target=x]
    %relu_default : [#users=2] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %mm_default : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%relu_default, %relu_default), kwargs = {})
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu_default, %mm_default), kwargs = {})
    %neg_default : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_tensor,), kwargs = {})
    return neg_default