graph():
    %tokens_1 : [#users=2] = placeholder[target=tokens_1]
    %mask_1 : [#users=1] = placeholder[target=mask_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %logits_1 : [#users=2] = placeholder[target=logits_1]
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%mask_1, -1), kwargs = {})
    %_to_copy : [#users=2] = call_function[target=torch.ops.aten._to_copy.default](args = (%unsqueeze,), kwargs = {dtype: torch.float32})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%tokens_1, %_to_copy), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul, [1]), kwargs = {})
    %sum_2 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%_to_copy, [1]), kwargs = {})
    %clamp_min : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%sum_2, 1e-09), kwargs = {})
    %div : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%sum_1, %clamp_min), kwargs = {})
    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%div, %w_1), kwargs = {})
    %norm : [#users=1] = call_function[target=torch.ops.aten.norm.ScalarOpt_dim](args = (%mm, 2.0, [-1], True), kwargs = {})
    %clamp_min_1 : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%norm, 1e-12), kwargs = {})
    %expand : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%clamp_min_1, [3, 6]), kwargs = {})
    %div_1 : [#users=3] = call_function[target=torch.ops.aten.div.Tensor](args = (%mm, %expand), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%div_1,), kwargs = {})
    %mm_1 : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%div_1, %t), kwargs = {})
    %logsumexp : [#users=1] = call_function[target=torch.ops.aten.logsumexp.default](args = (%logits_1, [-1], True), kwargs = {})
    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%logits_1, %logsumexp), kwargs = {})
    %std : [#users=1] = call_function[target=torch.ops.aten.std.correction](args = (%tokens_1, [1]), kwargs = {correction: 1})
    return (div_1, mm_1, sub, std)
