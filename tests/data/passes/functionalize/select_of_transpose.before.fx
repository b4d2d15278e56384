graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%clone,), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%t, 0, 2), kwargs = {})
    %add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%select, 100), kwargs = {})
    return clone
