graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=8] = placeholder[target=y_1]
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %y_1), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, %y_1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul,), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %y_1), kwargs = {})
    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_1, %y_1), kwargs = {})
    %relu_1 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul_1,), kwargs = {})
    %add_2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu_1, %y_1), kwargs = {})
    %mul_2 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_2, %y_1), kwargs = {})
    %relu_2 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul_2,), kwargs = {})
    %add_3 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu_2, %y_1), kwargs = {})
    %mul_3 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_3, %y_1), kwargs = {})
    %relu_3 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul_3,), kwargs = {})
    return relu_3
