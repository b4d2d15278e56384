graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%clone,), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%t, 0, 2), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%select, 100), kwargs = {})
    %t_1 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%clone,), kwargs = {})
    %select_scatter : [#users=1] = call_function[target=torch.ops.aten.select_scatter.default](args = (%t_1, %add, 0, 2), kwargs = {})
    %t_2 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%select_scatter,), kwargs = {})
    return t_2
