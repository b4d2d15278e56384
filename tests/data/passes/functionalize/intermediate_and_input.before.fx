graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %y_1), kwargs = {})
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%mm, 1), kwargs = {})
    %relu_ : [#users=1] = call_function[target=torch.ops.aten.relu_.default](args = (%add_,), kwargs = {})
    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%x_1, 2), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu_, %mul_), kwargs = {})
    return add
