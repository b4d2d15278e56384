graph():
    %x_1 : [#users=11] = placeholder[target=x_1]
    %p_1 : [#users=4] = placeholder[target=p_1]
    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%x_1,), kwargs = {})
    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})
    %exp : [#users=1] = call_function[target=torch.ops.aten.exp.default](args = (%x_1,), kwargs = {})
    %log : [#users=1] = call_function[target=torch.ops.aten.log.default](args = (%p_1,), kwargs = {})
    %sqrt : [#users=1] = call_function[target=torch.ops.aten.sqrt.default](args = (%p_1,), kwargs = {})
    %rsqrt : [#users=1] = call_function[target=torch.ops.aten.rsqrt.default](args = (%p_1,), kwargs = {})
    %reciprocal : [#users=1] = call_function[target=torch.ops.aten.reciprocal.default](args = (%p_1,), kwargs = {})
    %sigmoid : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%x_1,), kwargs = {})
    %tanh : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%x_1,), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x_1,), kwargs = {})
    %gelu : [#users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%x_1,), kwargs = {})
    %gelu_1 : [#users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%x_1,), kwargs = {approximate: tanh})
    %silu : [#users=1] = call_function[target=torch.ops.aten.silu.default](args = (%x_1,), kwargs = {})
    %sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = (%x_1,), kwargs = {})
    %cos : [#users=1] = call_function[target=torch.ops.aten.cos.default](args = (%x_1,), kwargs = {})
    return (abs_1, neg, exp, log, sqrt, rsqrt, reciprocal, sigmoid, tanh, relu, gelu, gelu_1, silu, sin, cos)
