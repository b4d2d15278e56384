graph():
    %x_1 : [#users=19] = placeholder[target=x_1]
    %y_1 : [#users=8] = placeholder[target=y_1]
    %p_1 : [#users=2] = placeholder[target=p_1]
    %q_1 : [#users=1] = placeholder[target=q_1]
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %y_1), kwargs = {alpha: 2.5})
    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, %y_1), kwargs = {alpha: -3})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, %y_1), kwargs = {})
    %div : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%x_1, %y_1), kwargs = {})
    %div_1 : [#users=1] = call_function[target=torch.ops.aten.div.Tensor_mode](args = (%x_1, %y_1), kwargs = {rounding_mode: trunc})
    %div_2 : [#users=1] = call_function[target=torch.ops.aten.div.Tensor_mode](args = (%x_1, %y_1), kwargs = {rounding_mode: floor})
    %div_3 : [#users=1] = call_function[target=torch.ops.aten.div.Tensor_mode](args = (%x_1, 0.75), kwargs = {rounding_mode: floor})
    %maximum : [#users=1] = call_function[target=torch.ops.aten.maximum.default](args = (%x_1, %y_1), kwargs = {})
    %minimum : [#users=1] = call_function[target=torch.ops.aten.minimum.default](args = (%x_1, %y_1), kwargs = {})
    %pow_1 : [#users=1] = call_function[target=torch.ops.aten.pow.Tensor_Tensor](args = (%p_1, %q_1), kwargs = {})
    %pow_2 : [#users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%x_1, 3), kwargs = {})
    %pow_3 : [#users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%p_1, 0.5), kwargs = {})
    %pow_4 : [#users=1] = call_function[target=torch.ops.aten.pow.Scalar](args = (2.0, %x_1), kwargs = {})
    %pow_5 : [#users=1] = call_function[target=torch.ops.aten.pow.Tensor_Scalar](args = (%x_1, 2.0), kwargs = {})
    %rsub : [#users=1] = call_function[target=torch.ops.aten.rsub.Scalar](args = (%x_1, 1.5), kwargs = {})
    %div_4 : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%x_1, 4), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Scalar](args = (%x_1, 2), kwargs = {})
    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Scalar](args = (%x_1, 0.5), kwargs = {})
    %sub_1 : [#users=1] = call_function[target=torch.ops.aten.sub.Scalar](args = (%x_1, 1.5), kwargs = {})
    %div_5 : [#users=1] = call_function[target=torch.ops.aten.div.Scalar](args = (%x_1, -2.0), kwargs = {})
    %div_6 : [#users=1] = call_function[target=torch.ops.aten.div.Scalar_mode](args = (%x_1, 0.3), kwargs = {rounding_mode: trunc})
    return (add, sub, mul, div, div_1, div_2, div_3, maximum, minimum, pow_1, pow_2, pow_3, pow_4, pow_5, rsub, div_4, add_1, mul_1, sub_1, div_5, div_6)
