using System.Collections;
using System.Linq.Expressions;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace RpcCompare.Protobuf.Messages;

/// <summary>
/// Protobuf cannot tell an empty collection from a missing one: both are no fields at all. Every
/// collection the model-built messages read therefore arrives empty, never null (what proto3
/// means by a repeated field nobody set, and what a WCF service written against
/// DataContractSerializer, which keeps empty collections, expects). A null collection sent
/// arrives empty too.
/// </summary>
public static class EmptyCollections
{
    /// <summary>An expression making an empty <paramref name="type"/>; null when it is no collection this can make.</summary>
    public static Expression? Of(Type type)
    {
        if (type == typeof(string) || type == typeof(byte[]) || !typeof(IEnumerable).IsAssignableFrom(type))
        {
            return null;
        }

        if (type.IsArray)
        {
            return Expression.Constant(Array.CreateInstance(type.GetElementType()!, 0), type);
        }

        if (!type.IsAbstract && !type.IsInterface && type.GetConstructor(Type.EmptyTypes) is not null)
        {
            return Expression.New(type);
        }

        if (type.IsInterface && type.IsGenericType && type.GetGenericArguments() is [var element] && type.IsAssignableFrom(element.MakeArrayType()))
        {
            return Expression.Constant(Array.CreateInstance(element, 0), type);
        }

        if (type.IsInterface && type.IsGenericType && type.GetGenericArguments() is [var key, var value]
            && type.IsAssignableFrom(typeof(Dictionary<,>).MakeGenericType(key, value)))
        {
            return Expression.Convert(Expression.New(typeof(Dictionary<,>).MakeGenericType(key, value)), type);
        }

        return null;
    }

    /// <summary>
    /// <paramref name="value"/>, or an empty <typeparamref name="T"/> when it is a null collection
    /// (generated code's form of <see cref="OrEmpty(Expression)"/>; anything else is returned as it is).
    /// Not an overload of OrEmpty: a generic OrEmpty&lt;T&gt; would be the better match for every
    /// MemberExpression the compiled paths pass, and silently return the expression itself.
    /// </summary>
    public static T EmptyIfNull<T>(T value) => value is null && EmptyOf<T>.Make is { } make ? make() : value;

    /// <summary><paramref name="value"/>, or an empty collection in its place when it is a null collection.</summary>
    public static Expression OrEmpty(Expression value) => Of(value.Type) is { } empty ? Expression.Coalesce(value, empty) : value;

    /// <summary>
    /// The factory protobuf-net creates a configured data type with: no constructor run (as
    /// DataContractSerializer does, so a member the wire leaves out reads as the CLR default) and
    /// every settable collection member empty.
    /// </summary>
    public static MethodInfo FactoryFor(Type type) =>
        typeof(Factory<>).MakeGenericType(type).GetMethod(nameof(Factory<object>.Create), BindingFlags.Public | BindingFlags.Static)!;

    /// <summary>Makes an empty <typeparamref name="T"/> (a shared empty array, or a new collection); null for a type that is no collection.</summary>
    private static class EmptyOf<T>
    {
        public static readonly Func<T>? Make = Of(typeof(T)) is { } empty ? Expression.Lambda<Func<T>>(empty).Compile() : null;
    }

    private static class Factory<T>
    {
        private static readonly Action<T>? Fill = CompileFill();

        public static T Create()
        {
            var value = (T)RuntimeHelpers.GetUninitializedObject(typeof(T));
            Fill?.Invoke(value);
            return value;
        }

        private static Action<T>? CompileFill()
        {
            var target = Expression.Parameter(typeof(T), "value");
            var members = typeof(T).GetMembers(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance)
                .Where(m => m is FieldInfo { IsInitOnly: false } || m is PropertyInfo { CanWrite: true, CanRead: true } p && p.GetIndexParameters().Length == 0)
                .Where(m => m is not FieldInfo f || !f.Name.EndsWith(">k__BackingField", StringComparison.Ordinal));
            var assignments = members
                .Select(m => (Member: Expression.MakeMemberAccess(target, m), Empty: Of(m is FieldInfo f ? f.FieldType : ((PropertyInfo)m).PropertyType)))
                .Where(a => a.Empty is not null)
                .Select(a => (Expression)Expression.Assign(a.Member, a.Empty!))
                .ToList();
            return assignments.Count == 0 ? null : Expression.Lambda<Action<T>>(Expression.Block(assignments), target).Compile();
        }
    }
}
