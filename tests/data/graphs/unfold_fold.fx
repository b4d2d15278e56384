graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %im2col : [#users=1] = call_function[target=torch.ops.aten.im2col.default](args = (%x_1, [3, 3], [1, 1], [1, 1], [1, 1]), kwargs = {})
    %transpose : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%im2col, -2, -1), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w_1,), kwargs = {})
    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%transpose,), kwargs = {memory_format: torch.contiguous_format})
    %_unsafe_view : [#users=1] = call_function[target=torch.ops.aten._unsafe_view.default](args = (%clone, [84, 27]), kwargs = {})
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%_unsafe_view, %t), kwargs = {})
    %_unsafe_view_1 : [#users=1] = call_function[target=torch.ops.aten._unsafe_view.default](args = (%mm, [2, 42, 27]), kwargs = {})
    %transpose_1 : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%_unsafe_view_1, -2, -1), kwargs = {})
    %clone_1 : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%transpose_1,), kwargs = {memory_format: torch.contiguous_format})
    %col2im : [#users=1] = call_function[target=torch.ops.aten.col2im.default](args = (%clone_1, [6, 7], [3, 3], [1, 1], [1, 1], [1, 1]), kwargs = {})
    %im2col_1 : [#users=2] = call_function[target=torch.ops.aten.im2col.default](args = (%x_1, [2, 3], [1, 2], [0, 0], [2, 2]), kwargs = {})
    %col2im_1 : [#users=1] = call_function[target=torch.ops.aten.col2im.default](args = (%im2col_1, [6, 7], [2, 3], [1, 2], [0, 0], [2, 2]), kwargs = {})
    return (col2im, im2col_1, col2im_1)
