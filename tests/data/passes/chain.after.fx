graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=8] = placeholder[target=y_1]
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %y_1), kwargs = {})
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor, %y_1), kwargs = {})
    %clamp_min_default : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%mul_tensor, 0), kwargs = {})
    %add_tensor_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%clamp_min_default, %y_1), kwargs = {})
    %mul_tensor_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor_1, %y_1), kwargs = {})
    %clamp_min_default_1 : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%mul_tensor_1, 0), kwargs = {})
    %add_tensor_2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%clamp_min_default_1, %y_1), kwargs = {})
    %mul_tensor_2 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor_2, %y_1), kwargs = {})
    %clamp_min_default_2 : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%mul_tensor_2, 0), kwargs = {})
    %add_tensor_3 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%clamp_min_default_2, %y_1), kwargs = {})
    %mul_tensor_3 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor_3, %y_1), kwargs = {})
    %clamp_min_default_3 : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%mul_tensor_3, 0), kwargs = {})
    return clamp_min_default_3
