graph():
    %x : f32[4, 8] [#users=1] = placeholder[target=x]
    %y : f32[4, 8] [#users=1] = placeholder[target=y]
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %y), kwargs = {})
    %my_op : [#users=2] = call_function[target=torch.ops.demo.my_op.default](args = (%mul, 2.0), kwargs = {})
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%my_op, 1), kwargs = {})
    %my_inplace : [#users=0] = call_function[target=torch.ops.demo.my_inplace.default](args = (%add, 0.5), kwargs = {})
    %tanh : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = (%add,), kwargs = {})
    return (my_op, tanh)
