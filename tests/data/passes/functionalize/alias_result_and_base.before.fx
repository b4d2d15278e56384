graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %y_1), kwargs = {})
    %relu_ : [#users=1] = call_function[target=torch.ops.aten.relu_.default](args = (%mm,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu_, %relu_), kwargs = {})
    return add
