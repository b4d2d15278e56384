graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %src_1 : [#users=1] = placeholder[target=src_1]
    %dst_1 : [#users=3] = placeholder[target=dst_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %index_select : [#users=2] = call_function[target=torch.ops.aten.index_select.default](args = (%x_1, 0, %src_1), kwargs = {})
    %zeros_like : [#users=1] = call_function[target=torch.ops.aten.zeros_like.default](args = (%x_1,), kwargs = {dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False})
    %index_add : [#users=1] = call_function[target=torch.ops.aten.index_add.default](args = (%zeros_like, 0, %dst_1, %index_select), kwargs = {})
    %zeros : [#users=1] = call_function[target=torch.ops.aten.zeros.default](args = ([6],), kwargs = {device: cpu, pin_memory: False})
    %ones : [#users=1] = call_function[target=torch.ops.aten.ones.default](args = ([8],), kwargs = {device: cpu, pin_memory: False})
    %index_add_ : [#users=2] = call_function[target=torch.ops.aten.index_add_.default](args = (%zeros, 0, %dst_1, %ones), kwargs = {})
    %clamp_min : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%index_add_, 1), kwargs = {})
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%clamp_min, 1), kwargs = {})
    %div : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%index_add, %unsqueeze), kwargs = {})
    %_to_copy : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%dst_1,), kwargs = {dtype: torch.int32})
    %index_add_1 : [#users=1] = call_function[target=torch.ops.aten.index_add.default](args = (%x_1, 0, %_to_copy, %index_select), kwargs = {alpha: 0.5})
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%div, %w_1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})
    return (relu, index_add_1, index_add_)
