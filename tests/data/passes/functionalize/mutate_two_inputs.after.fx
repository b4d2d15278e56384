graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %sub : [#users=2] = call_function[target=torch.ops.aten.sub.Tensor](args = (%y_1, %x_1), kwargs = {})
    %neg : [#users=2] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg, %sub), kwargs = {})
    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %neg), kwargs = {})
    %copy__1 : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%y_1, %sub), kwargs = {})
    return add
