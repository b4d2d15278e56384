graph():
    %ids_1 : [#users=2] = placeholder[target=ids_1]
    %table_1 : [#users=2] = placeholder[target=table_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %embedding : [#users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%table_1, %ids_1), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%embedding, [1]), kwargs = {})
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%sum_1, %w_1), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%ids_1, 0, 0), kwargs = {})
    %index_select : [#users=1] = call_function[target=torch.ops.aten.index_select.default](args = (%table_1, 0, %select), kwargs = {})
    return (mm, index_select)
