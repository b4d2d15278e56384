graph():
    %x : [#users=1] = placeholder[target=x]
    %y : [#users=2] = placeholder[target=y]
    %relu_default : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %neg_default : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%relu_default,), kwargs = {})
    %mm_default : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%neg_default, %y), kwargs = {})
    %relu_default_1 : [#users=2] = call_function[target=torch.ops.aten.relu.default](args = (%mm_default,), kwargs = {})
    %neg_default_1 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%relu_default_1,), kwargs = {})
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg_default_1, %relu_default_1), kwargs = {})
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor, %add_tensor), kwargs = {})
    %mm_default_1 : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%mul_tensor, %y), kwargs = {})
    %neg_default_2 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%mm_default_1,), kwargs = {})
    return neg_default_2