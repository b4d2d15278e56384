graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=3] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%clone, [-1]), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%clone, 0, 0), kwargs = {})
    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%select, 2), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view, 1), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_, 3), kwargs = {})
    return (add, mul, clone)
