graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%clone, %y_1), kwargs = {})
    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%add_, 2.0), kwargs = {})
    %relu_ : [#users=2] = call_function[target=torch.ops.aten.relu_.default](args = (%mul_,), kwargs = {})
    %clone_1 : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%y_1,), kwargs = {})
    %sub_ : [#users=1] = call_function[target=torch.ops.aten.sub_.Tensor](args = (%clone_1, 1), kwargs = {alpha: 2})
    %clamp_ : [#users=1] = call_function[target=torch.ops.aten.clamp_.default](args = (%sub_, -1.0), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%relu_,), kwargs = {})
    return (relu_, clamp_, sum_1)
