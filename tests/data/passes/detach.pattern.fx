graph():
    %x : [#users=1] = placeholder[target=x]
    %detach_default : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%x,), kwargs = {})
    return detach_default
