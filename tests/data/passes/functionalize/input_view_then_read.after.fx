graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%x_1,), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%t, 0, 0), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%select, %y_1), kwargs = {})
    %t_1 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%x_1,), kwargs = {})
    %select_scatter : [#users=1] = call_function[target=torch.ops.aten.select_scatter.default](args = (%t_1, %add, 0, 0), kwargs = {})
    %t_2 : [#users=2] = call_function[target=torch.ops.aten.t.default](args = (%select_scatter,), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%t_2, 2), kwargs = {})
    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %t_2), kwargs = {})
    return mul
