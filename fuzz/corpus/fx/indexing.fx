graph():
    %x_1 : [#users=6] = placeholder[target=x_1]
    %ids_1 : [#users=3] = placeholder[target=ids_1]
    %idx_1 : [#users=2] = placeholder[target=idx_1]
    %table_1 : [#users=1] = placeholder[target=table_1]
    %pad_in_1 : [#users=5] = placeholder[target=pad_in_1]
    %embedding : [#users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%table_1, %ids_1), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%ids_1, 0, 0), kwargs = {})
    %clamp : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%select, None, 4), kwargs = {})
    %index_select : [#users=1] = call_function[target=torch.ops.aten.index_select.default](args = (%x_1, 0, %clamp), kwargs = {})
    %arange : [#users=1] = call_function[target=torch.ops.aten.arange.start_step](args = (5, -1, -2), kwargs = {device: cpu, pin_memory: False})
    %index_select_1 : [#users=1] = call_function[target=torch.ops.aten.index_select.default](args = (%x_1, 1, %arange), kwargs = {})
    %gather : [#users=1] = call_function[target=torch.ops.aten.gather.default](args = (%x_1, 1, %idx_1), kwargs = {})
    %clamp_1 : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%idx_1, None, 4), kwargs = {})
    %gather_1 : [#users=1] = call_function[target=torch.ops.aten.gather.default](args = (%x_1, 0, %clamp_1), kwargs = {})
    %constant_pad_nd : [#users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%pad_in_1, [2, 1], 0.0), kwargs = {})
    %constant_pad_nd_1 : [#users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%pad_in_1, [1, 1, 2, 0, 0, 1], -1.5), kwargs = {})
    %constant_pad_nd_2 : [#users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%pad_in_1, [-1, 2, 1, -2], 0.0), kwargs = {})
    %tril : [#users=1] = call_function[target=torch.ops.aten.tril.default](args = (%pad_in_1, -1), kwargs = {})
    %triu : [#users=1] = call_function[target=torch.ops.aten.triu.default](args = (%pad_in_1, 2), kwargs = {})
    %tril_1 : [#users=1] = call_function[target=torch.ops.aten.tril.default](args = (%x_1, 1), kwargs = {})
    %triu_1 : [#users=1] = call_function[target=torch.ops.aten.triu.default](args = (%x_1,), kwargs = {})
    %tril_2 : [#users=1] = call_function[target=torch.ops.aten.tril.default](args = (%ids_1,), kwargs = {})
    return (embedding, index_select, index_select_1, gather, gather_1, constant_pad_nd, constant_pad_nd_1, constant_pad_nd_2, tril, triu, tril_1, triu_1, tril_2)
