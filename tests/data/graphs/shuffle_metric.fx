graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %q_1 : [#users=3] = placeholder[target=q_1]
    %keys_1 : [#users=3] = placeholder[target=keys_1]
    %a_1 : [#users=1] = placeholder[target=a_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 2), kwargs = {})
    %channel_shuffle : [#users=1] = call_function[target=torch.ops.aten.channel_shuffle.default](args = (%convolution, 2), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%channel_shuffle,), kwargs = {})
    %expand : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%q_1, [30, 8]), kwargs = {})
    %view : [#users=0] = call_function[target=torch.ops.aten.view.default](args = (%expand, [1, 30, 8]), kwargs = {})
    %expand_1 : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%keys_1, [7, 8]), kwargs = {})
    %view_1 : [#users=0] = call_function[target=torch.ops.aten.view.default](args = (%expand_1, [1, 7, 8]), kwargs = {})
    %_euclidean_dist : [#users=1] = call_function[target=torch.ops.aten._euclidean_dist.default](args = (%q_1, %keys_1), kwargs = {})
    %view_2 : [#users=2] = call_function[target=torch.ops.aten.view.default](args = (%_euclidean_dist, [30, 7]), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%q_1, 0, 0, 4), kwargs = {})
    %_cdist_forward : [#users=1] = call_function[target=torch.ops.aten._cdist_forward.default](args = (%slice_1, %keys_1, 1.0, None), kwargs = {})
    %linalg_cross : [#users=2] = call_function[target=torch.ops.aten.linalg_cross.default](args = (%a_1, %b_1), kwargs = {})
    %argmin : [#users=1] = call_function[target=torch.ops.aten.argmin.default](args = (%view_2, -1), kwargs = {})
    %norm : [#users=1] = call_function[target=torch.ops.aten.norm.ScalarOpt_dim](args = (%linalg_cross, 2.0, [-1], True), kwargs = {})
    %clamp_min : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%norm, 1e-12), kwargs = {})
    %expand_2 : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%clamp_min, [5, 3]), kwargs = {})
    %div : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%linalg_cross, %expand_2), kwargs = {})
    return (relu, view_2, argmin, _cdist_forward, div)
