graph():
    %x : [#users=1] = placeholder[target=x]
    %neg_default : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})
    %neg_default_1 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%neg_default,), kwargs = {})
    return neg_default_1
