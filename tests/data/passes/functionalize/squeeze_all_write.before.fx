graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %squeeze : [#users=1] = call_function[target=torch.ops.aten.squeeze.default](args = (%clone,), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%squeeze, 0, 1, 9223372036854775807), kwargs = {})
    %add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%slice_1, 1), kwargs = {})
    %squeeze_1 : [#users=1] = call_function[target=torch.ops.aten.squeeze.default](args = (%x_1,), kwargs = {})
    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%squeeze_1, 2), kwargs = {})
    return clone
