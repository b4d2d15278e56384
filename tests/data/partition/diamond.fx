graph():
    %x : [#users=1] = placeholder[target=x]
    %y : [#users=1] = placeholder[target=y]
    %relu_default : [#users=2] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %neg_default : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%relu_default,), kwargs = {})
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%relu_default, %relu_default), kwargs = {})
    %add_tensor : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg_default, %mul_tensor), kwargs = {})
    %mm_default : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%add_tensor, %y), kwargs = {})
    %relu_default_1 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm_default,), kwargs = {})
    %add_tensor_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu_default_1, %add_tensor), kwargs = {})
    %neg_default_1 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%add_tensor_1,), kwargs = {})
    return neg_default_1