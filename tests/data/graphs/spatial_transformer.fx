graph():
    %x_1 : [#users=4] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %flow_1 : [#users=2] = placeholder[target=flow_1]
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%x_1, [2, 3]), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w_1,), kwargs = {})
    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b_1, %mean, %t), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%addmm, [-1, 2, 3]), kwargs = {})
    %affine_grid_generator : [#users=1] = call_function[target=torch.ops.aten.affine_grid_generator.default](args = (%view, [2, 3, 6, 7], False), kwargs = {})
    %grid_sampler_2d : [#users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default](args = (%x_1, %affine_grid_generator, 0, 0, False), kwargs = {})
    %grid_sampler_2d_1 : [#users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default](args = (%x_1, %flow_1, 1, 1, True), kwargs = {})
    %grid_sampler_2d_2 : [#users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default](args = (%x_1, %flow_1, 2, 2, False), kwargs = {})
    return (grid_sampler_2d, grid_sampler_2d_1, grid_sampler_2d_2)
