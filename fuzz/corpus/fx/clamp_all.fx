graph():
    %x_1 : [#users=10] = placeholder[target=x_1]
    %lo_1 : [#users=3] = placeholder[target=lo_1]
    %hi_1 : [#users=2] = placeholder[target=hi_1]
    %clamp : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%x_1, -0.5, 0.5), kwargs = {})
    %clamp_1 : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%x_1, 0.0), kwargs = {})
    %clamp_2 : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%x_1, None, 0.25), kwargs = {})
    %clamp_3 : [#users=1] = call_function[target=torch.ops.aten.clamp.Tensor](args = (%x_1, %lo_1, %hi_1), kwargs = {})
    %clamp_4 : [#users=1] = call_function[target=torch.ops.aten.clamp.Tensor](args = (%x_1, %lo_1), kwargs = {})
    %clamp_min : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%x_1, -0.2), kwargs = {})
    %clamp_max : [#users=1] = call_function[target=torch.ops.aten.clamp_max.default](args = (%x_1, 0.2), kwargs = {})
    %clamp_min_1 : [#users=1] = call_function[target=torch.ops.aten.clamp_min.Tensor](args = (%x_1, %lo_1), kwargs = {})
    %clamp_max_1 : [#users=1] = call_function[target=torch.ops.aten.clamp_max.Tensor](args = (%x_1, %hi_1), kwargs = {})
    %_to_copy : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x_1,), kwargs = {dtype: torch.int64})
    %clamp_5 : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%_to_copy, -1, 1), kwargs = {})
    return (clamp, clamp_1, clamp_2, clamp_3, clamp_4, clamp_min, clamp_max, clamp_min_1, clamp_max_1, clamp_5)
