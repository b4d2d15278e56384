graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %permute : [#users=2] = call_function[target=torch.ops.aten.permute.default](args = (%clone, [2, 0, 1]), kwargs = {})
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 1), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%unsqueeze, 3, 0), kwargs = {})
    %add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%select, 5), kwargs = {})
    return (clone, permute)
