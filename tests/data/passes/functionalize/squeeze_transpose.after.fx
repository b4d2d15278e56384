graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %squeeze : [#users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%clone, 1), kwargs = {})
    %transpose : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%squeeze, 0, 1), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%transpose, 0, 1), kwargs = {})
    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%select, 4), kwargs = {})
    %squeeze_1 : [#users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%clone, 1), kwargs = {})
    %transpose_1 : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%squeeze_1, 0, 1), kwargs = {})
    %select_scatter : [#users=1] = call_function[target=torch.ops.aten.select_scatter.default](args = (%transpose_1, %sub, 0, 1), kwargs = {})
    %transpose_2 : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%select_scatter, 0, 1), kwargs = {})
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%transpose_2, 1), kwargs = {})
    return unsqueeze
