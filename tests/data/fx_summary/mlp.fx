graph():
    %x_1 : f32[4, 8] [#users=1] = placeholder[target=x_1]
    %w1_1 : f32[8, 16] [#users=1] = placeholder[target=w1_1]
    %b1_1 : f32[16] [#users=1] = placeholder[target=b1_1]
    %w2_1 : f32[16, 16] [#users=2] = placeholder[target=w2_1]
    %w3_1 : f32[16, 2] [#users=1] = placeholder[target=w3_1]
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %w1_1), kwargs = {})
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, %b1_1), kwargs = {})
    %gelu : [#users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%add,), kwargs = {approximate: tanh})
    %mm_1 : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%gelu, %w2_1), kwargs = {})
    %mm_2 : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%add, %w2_1), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm_1, %mm_2), kwargs = {alpha: 2})
    %mul : [#users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_1, 0.5), kwargs = {})
    %mm_3 : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%mul, %w3_1), kwargs = {})
    %add_2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, 1e-05), kwargs = {})
    return (mm_3, add_2)
