namespace RpcCompare.Bindings;

/// <summary>One contract a host serves and the type implementing it.</summary>
public sealed record RpcServiceDescriptor(Type Contract, Type Implementation);
