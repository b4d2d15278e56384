graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %permute : [#users=2] = call_function[target=torch.ops.aten.permute.default](args = (%clone, [2, 0, 1]), kwargs = {})
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute, 1), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%unsqueeze, 3, 0), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%select, 5), kwargs = {})
    %permute_1 : [#users=1] = call_function[target=torch.ops.aten.permute.default](args = (%clone, [2, 0, 1]), kwargs = {})
    %unsqueeze_1 : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%permute_1, 1), kwargs = {})
    %select_scatter : [#users=1] = call_function[target=torch.ops.aten.select_scatter.default](args = (%unsqueeze_1, %add, 3, 0), kwargs = {})
    %squeeze : [#users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%select_scatter, 1), kwargs = {})
    %permute_2 : [#users=1] = call_function[target=torch.ops.aten.permute.default](args = (%squeeze, [1, 2, 0]), kwargs = {})
    return (permute_2, permute)
