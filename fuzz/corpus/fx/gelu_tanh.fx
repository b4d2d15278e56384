graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %w_1), kwargs = {})
    %gelu : [#users=2] = call_function[target=torch.ops.aten.gelu.default](args = (%mm,), kwargs = {approximate: tanh})
    %gelu_1 : [#users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%x_1,), kwargs = {})
    %silu : [#users=1] = call_function[target=torch.ops.aten.silu.default](args = (%gelu,), kwargs = {})
    %sigmoid : [#users=1] = call_function[target=torch.ops.aten.sigmoid.default](args = (%gelu_1,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%silu, %sigmoid), kwargs = {})
    return (gelu, add)
