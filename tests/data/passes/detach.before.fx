graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%x_1,), kwargs = {})
    %detach_1 : [#users=2] = call_function[target=torch.ops.aten.detach.default](args = (%detach,), kwargs = {})
    %sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = (%detach_1,), kwargs = {})
    %detach_2 : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%detach_1,), kwargs = {})
    %detach_3 : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%detach_2,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%sin, %detach_3), kwargs = {})
    return add
