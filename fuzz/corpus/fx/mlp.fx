graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w1_1 : [#users=1] = placeholder[target=w1_1]
    %b1_1 : [#users=1] = placeholder[target=b1_1]
    %w2_1 : [#users=1] = placeholder[target=w2_1]
    %b2_1 : [#users=1] = placeholder[target=b2_1]
    %w3_1 : [#users=1] = placeholder[target=w3_1]
    %b3_1 : [#users=1] = placeholder[target=b3_1]
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w1_1,), kwargs = {})
    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b1_1, %x_1, %t), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%addmm,), kwargs = {})
    %t_1 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w2_1,), kwargs = {})
    %addmm_1 : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b2_1, %relu, %t_1), kwargs = {})
    %silu : [#users=1] = call_function[target=torch.ops.aten.silu.default](args = (%addmm_1,), kwargs = {})
    %t_2 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w3_1,), kwargs = {})
    %addmm_2 : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b3_1, %silu, %t_2), kwargs = {})
    return addmm_2
