graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %squeeze : [#users=1] = call_function[target=torch.ops.aten.squeeze.default](args = (%clone,), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%squeeze, 0, 1, 9223372036854775807), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%slice_1, 1), kwargs = {})
    %squeeze_1 : [#users=1] = call_function[target=torch.ops.aten.squeeze.default](args = (%x_1,), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_1, 2), kwargs = {})
    %squeeze_2 : [#users=1] = call_function[target=torch.ops.aten.squeeze.default](args = (%clone,), kwargs = {})
    %slice_scatter : [#users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%squeeze_2, %add, 0, 1, 9223372036854775807), kwargs = {})
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%slice_scatter, 0), kwargs = {})
    %unsqueeze_1 : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze, 2), kwargs = {})
    %unsqueeze_2 : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mul, 0), kwargs = {})
    %unsqueeze_3 : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%unsqueeze_2, 2), kwargs = {})
    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %unsqueeze_3), kwargs = {})
    return unsqueeze_1
