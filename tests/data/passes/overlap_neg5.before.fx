graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})
    %neg_1 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%neg,), kwargs = {})
    %neg_2 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%neg_1,), kwargs = {})
    %neg_3 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%neg_2,), kwargs = {})
    %neg_4 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%neg_3,), kwargs = {})
    return neg_4
