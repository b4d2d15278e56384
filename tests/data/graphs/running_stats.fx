graph():
    %x_1 : [#users=10] = placeholder[target=x_1]
    %scores_1 : [#users=6] = placeholder[target=scores_1]
    %edges_1 : [#users=2] = placeholder[target=edges_1]
    %q_1 : [#users=1] = placeholder[target=q_1]
    %m_1 : [#users=3] = placeholder[target=m_1]
    %v_1 : [#users=2] = placeholder[target=v_1]
    %w_1 : [#users=2] = placeholder[target=w_1]
    %img_1 : [#users=1] = placeholder[target=img_1]
    %aminmax : [#users=2] = call_function[target=torch.ops.aten.aminmax.default](args = (%x_1,), kwargs = {dim: 1})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%aminmax, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%aminmax, 1), kwargs = {})
    %gt : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x_1, 1.0), kwargs = {})
    %full_like : [#users=1] = call_function[target=torch.ops.aten.full_like.default](args = (%x_1, nan), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
    %where : [#users=1] = call_function[target=torch.ops.aten.where.self](args = (%gt, %full_like, %x_1), kwargs = {})
    %nansum : [#users=1] = call_function[target=torch.ops.aten.nansum.default](args = (%where, [1]), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x_1,), kwargs = {})
    %count_nonzero : [#users=1] = call_function[target=torch.ops.aten.count_nonzero.default](args = (%relu, 0), kwargs = {})
    %cummax : [#users=2] = call_function[target=torch.ops.aten.cummax.default](args = (%scores_1, 1), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%cummax, 0), kwargs = {})
    %getitem_3 : [#users=3] = call_function[target=operator.getitem](args = (%cummax, 1), kwargs = {})
    %cummin : [#users=2] = call_function[target=torch.ops.aten.cummin.default](args = (%scores_1, 0), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%cummin, 0), kwargs = {})
    %getitem_5 : [#users=0] = call_function[target=operator.getitem](args = (%cummin, 1), kwargs = {})
    %logcumsumexp : [#users=1] = call_function[target=torch.ops.aten.logcumsumexp.default](args = (%scores_1, 1), kwargs = {})
    %bucketize : [#users=1] = call_function[target=torch.ops.aten.bucketize.Tensor](args = (%x_1, %edges_1), kwargs = {right: True})
    %searchsorted : [#users=1] = call_function[target=torch.ops.aten.searchsorted.Tensor](args = (%edges_1, %q_1), kwargs = {side: left})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%getitem_3, 0, 0, 9223372036854775807), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%slice_1, 1, -1), kwargs = {})
    %index_fill : [#users=1] = call_function[target=torch.ops.aten.index_fill.int_Scalar](args = (%scores_1, 1, %select, -1.0), kwargs = {})
    %take : [#users=1] = call_function[target=torch.ops.aten.take.default](args = (%scores_1, %getitem_3), kwargs = {})
    %rot90 : [#users=1] = call_function[target=torch.ops.aten.rot90.default](args = (%img_1, 1, [2, 3]), kwargs = {})
    %select_1 : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%x_1, 0, 0), kwargs = {})
    %addmv : [#users=1] = call_function[target=torch.ops.aten.addmv.default](args = (%v_1, %m_1, %select_1), kwargs = {beta: 0.5, alpha: 2.0})
    %select_2 : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%x_1, 0, 1), kwargs = {})
    %addr : [#users=1] = call_function[target=torch.ops.aten.addr.default](args = (%m_1, %v_1, %select_2), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%addr, [1]), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%addmv, %sum_1), kwargs = {})
    %slice_2 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%m_1, 0, 0, 9223372036854775807), kwargs = {})
    %slice_3 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%slice_2, 1, 0, 4), kwargs = {})
    %transpose : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%w_1, 1, 2), kwargs = {})
    %addbmm : [#users=1] = call_function[target=torch.ops.aten.addbmm.default](args = (%slice_3, %w_1, %transpose), kwargs = {})
    %slice_4 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%scores_1, 0, 0, 9223372036854775807), kwargs = {})
    %slice_5 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%slice_4, 1, 0, 5), kwargs = {})
    %copysign : [#users=1] = call_function[target=torch.ops.aten.copysign.Tensor](args = (%slice_5, %x_1), kwargs = {})
    %hypot : [#users=1] = call_function[target=torch.ops.aten.hypot.default](args = (%x_1, %copysign), kwargs = {})
    return (getitem, getitem_1, nansum, count_nonzero, getitem_2, getitem_3, getitem_4, logcumsumexp, bucketize, searchsorted, index_fill, take, rot90, add, addbmm, hypot)
