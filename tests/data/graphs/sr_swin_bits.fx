graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %t_1 : [#users=2] = placeholder[target=t_1]
    %reflection_pad2d : [#users=1] = call_function[target=torch.ops.aten.reflection_pad2d.default](args = (%x_1, [1, 1, 1, 1]), kwargs = {})
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%reflection_pad2d, %w_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %pixel_shuffle : [#users=1] = call_function[target=torch.ops.aten.pixel_shuffle.default](args = (%convolution, 2), kwargs = {})
    %replication_pad2d : [#users=1] = call_function[target=torch.ops.aten.replication_pad2d.default](args = (%x_1, [2, 0, 1, 1]), kwargs = {})
    %roll : [#users=1] = call_function[target=torch.ops.aten.roll.default](args = (%t_1, [-2, -2], [1, 2]), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%roll, 2), kwargs = {})
    %roll_1 : [#users=1] = call_function[target=torch.ops.aten.roll.default](args = (%mul, [2, 2], [1, 2]), kwargs = {})
    %roll_2 : [#users=1] = call_function[target=torch.ops.aten.roll.default](args = (%t_1, [3]), kwargs = {})
    return (pixel_shuffle, replication_pad2d, roll_1, roll_2)
