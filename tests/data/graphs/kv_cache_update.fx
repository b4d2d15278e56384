graph():
    %cache_1 : [#users=1] = placeholder[target=cache_1]
    %new_1 : [#users=1] = placeholder[target=new_1]
    %pos_1 : [#users=1] = placeholder[target=pos_1]
    %x_1 : [#users=2] = placeholder[target=x_1]
    %counts_at_1 : [#users=1] = placeholder[target=counts_at_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%cache_1,), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%clone, 0, 0, 9223372036854775807), kwargs = {})
    %index_put_ : [#users=0] = call_function[target=torch.ops.aten.index_put_.default](args = (%slice_1, [None, %pos_1], %new_1), kwargs = {})
    %clone_1 : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %amin : [#users=1] = call_function[target=torch.ops.aten.amin.default](args = (%x_1,), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%amin, 0), kwargs = {})
    %lt : [#users=1] = call_function[target=torch.ops.aten.lt.Scalar](args = (%clone_1, 0), kwargs = {})
    %index_put__1 : [#users=1] = call_function[target=torch.ops.aten.index_put_.default](args = (%clone_1, [%lt], %mul), kwargs = {})
    %zeros : [#users=1] = call_function[target=torch.ops.aten.zeros.default](args = ([6],), kwargs = {device: cpu, pin_memory: False})
    %ones : [#users=1] = call_function[target=torch.ops.aten.ones.default](args = ([10],), kwargs = {device: cpu, pin_memory: False})
    %index_put : [#users=1] = call_function[target=torch.ops.aten.index_put.default](args = (%zeros, [%counts_at_1], %ones, True), kwargs = {})
    return (clone, index_put__1, index_put)
