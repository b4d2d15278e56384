graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=3] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%clone, 0, 0), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%clone, 0, 0, 9223372036854775807), kwargs = {})
    %select_1 : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%slice_1, 1, 1), kwargs = {})
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%select, 1), kwargs = {})
    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%select_1, 2), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_, 0), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_, 0), kwargs = {})
    return (add, add_1, clone)
