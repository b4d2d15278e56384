graph():
    %ids_1 : [#users=2] = placeholder[target=ids_1]
    %table_1 : [#users=1] = placeholder[target=table_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %embedding : [#users=1] = call_function[target=torch.ops.aten.embedding.default](args = (%table_1, %ids_1), kwargs = {})
    %ne : [#users=1] = call_function[target=torch.ops.aten.ne.Scalar](args = (%ids_1, 0), kwargs = {})
    %unsqueeze : [#users=2] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%ne, -1), kwargs = {})
    %bitwise_not : [#users=1] = call_function[target=torch.ops.aten.bitwise_not.default](args = (%unsqueeze,), kwargs = {})
    %masked_fill : [#users=1] = call_function[target=torch.ops.aten.masked_fill.Scalar](args = (%embedding, %bitwise_not, 0.0), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%masked_fill, [1]), kwargs = {})
    %sum_2 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%unsqueeze, [1]), kwargs = {})
    %clamp : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%sum_2, 1), kwargs = {})
    %div : [#users=2] = call_function[target=torch.ops.aten.div.Tensor](args = (%sum_1, %clamp), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w_1,), kwargs = {})
    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b_1, %div, %t), kwargs = {})
    %_softmax : [#users=2] = call_function[target=torch.ops.aten._softmax.default](args = (%addmm, -1, False), kwargs = {})
    %argmax : [#users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%_softmax, -1), kwargs = {})
    return (_softmax, argmax, div)
