graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%clone, 0, 0, 9223372036854775807), kwargs = {})
    %slice_2 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%slice_1, 1, 1, 9223372036854775807, 2), kwargs = {})
    %slice_3 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%slice_2, 0, 1, 9223372036854775807), kwargs = {})
    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%slice_3, 10), kwargs = {})
    return clone
