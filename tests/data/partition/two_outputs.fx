graph():
    %x : [#users=1] = placeholder[target=x]
    %y : [#users=2] = placeholder[target=y]
    %relu_default : [#users=2] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %neg_default : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%relu_default,), kwargs = {})
    %mm_default : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%relu_default, %y), kwargs = {})
    %mm_default_1 : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%neg_default, %y), kwargs = {})
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_default, %mm_default_1), kwargs = {})
    return add_tensor