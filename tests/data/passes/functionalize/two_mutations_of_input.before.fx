graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%x_1, %y_1), kwargs = {})
    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%add_, 2), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%mul_,), kwargs = {})
    return sum_1
