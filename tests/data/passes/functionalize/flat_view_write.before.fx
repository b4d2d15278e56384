graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%clone, [-1]), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view, 0, 1, 4), kwargs = {})
    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%slice_1, 3), kwargs = {})
    return clone
