graph():
    %logits_1 : [#users=2] = placeholder[target=logits_1]
    %table_1 : [#users=1] = placeholder[target=table_1]
    %ids_1 : [#users=1] = placeholder[target=ids_1]
    %pos_1 : [#users=2] = placeholder[target=pos_1]
    %topk : [#users=2] = call_function[target=torch.ops.aten.topk.default](args = (%logits_1, 4), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%topk, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%topk, 1), kwargs = {})
    %index : [#users=3] = call_function[target=torch.ops.aten.index.Tensor](args = (%table_1, [%getitem_1]), kwargs = {})
    %sort : [#users=2] = call_function[target=torch.ops.aten.sort.default](args = (%logits_1, -1, True), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%sort, 0), kwargs = {})
    %getitem_3 : [#users=1] = call_function[target=operator.getitem](args = (%sort, 1), kwargs = {})
    %_softmax : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%getitem_2, -1, False), kwargs = {})
    %cumsum : [#users=1] = call_function[target=torch.ops.aten.cumsum.default](args = (%_softmax, -1), kwargs = {})
    %flip : [#users=1] = call_function[target=torch.ops.aten.flip.default](args = (%cumsum, [-1]), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%index, 1, 0, 9223372036854775807), kwargs = {})
    %index_1 : [#users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%slice_1, [%ids_1, None, %pos_1]), kwargs = {})
    %slice_2 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%pos_1, 0, 0, 2), kwargs = {})
    %slice_3 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%index, 0, 0, 9223372036854775807), kwargs = {})
    %index_2 : [#users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%slice_3, [None, %slice_2]), kwargs = {})
    %_softmax_1 : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%getitem, -1, False), kwargs = {})
    return (_softmax_1, index, getitem_3, flip, index_1, index_2)
