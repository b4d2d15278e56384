graph():
    %c3_1 : [#users=1] = placeholder[target=c3_1]
    %c4_1 : [#users=1] = placeholder[target=c4_1]
    %w3_1 : [#users=1] = placeholder[target=w3_1]
    %w4_1 : [#users=1] = placeholder[target=w4_1]
    %convolution : [#users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%c4_1, %w4_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %convolution_1 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%c3_1, %w3_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %upsample_nearest2d : [#users=1] = call_function[target=torch.ops.aten.upsample_nearest2d.vec](args = (%convolution, None, [2.0, 2.0]), kwargs = {})
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution_1, %upsample_nearest2d), kwargs = {})
    %upsample_bilinear2d : [#users=1] = call_function[target=torch.ops.aten.upsample_bilinear2d.vec](args = (%add, [13, 11], False, None), kwargs = {})
    %upsample_bilinear2d_1 : [#users=1] = call_function[target=torch.ops.aten.upsample_bilinear2d.vec](args = (%convolution, None, True, [2.5, 2.5]), kwargs = {})
    return (add, upsample_bilinear2d, upsample_bilinear2d_1)
