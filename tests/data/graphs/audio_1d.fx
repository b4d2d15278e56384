graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %img_1 : [#users=1] = placeholder[target=img_1]
    %reflection_pad1d : [#users=1] = call_function[target=torch.ops.aten.reflection_pad1d.default](args = (%x_1, [3, 3]), kwargs = {})
    %convolution : [#users=3] = call_function[target=torch.ops.aten.convolution.default](args = (%reflection_pad1d, %w_1, None, [1], [0], [1], False, [0], 1), kwargs = {})
    %upsample_nearest1d : [#users=1] = call_function[target=torch.ops.aten.upsample_nearest1d.vec](args = (%convolution, None, [2.0]), kwargs = {})
    %upsample_linear1d : [#users=1] = call_function[target=torch.ops.aten.upsample_linear1d.vec](args = (%convolution, [13], False, None), kwargs = {})
    %upsample_linear1d_1 : [#users=1] = call_function[target=torch.ops.aten.upsample_linear1d.vec](args = (%convolution, None, True, [2.0]), kwargs = {})
    %replication_pad1d : [#users=1] = call_function[target=torch.ops.aten.replication_pad1d.default](args = (%upsample_nearest1d, [2, 1]), kwargs = {})
    %pixel_unshuffle : [#users=1] = call_function[target=torch.ops.aten.pixel_unshuffle.default](args = (%img_1, 2), kwargs = {})
    return (replication_pad1d, upsample_linear1d, upsample_linear1d_1, pixel_unshuffle)
