using System.Collections;
using System.Collections.Concurrent;
using System.Reflection;
using System.Runtime.Serialization;

namespace RpcCompare.Description.DataContracts;

/// <summary>
/// Lays out data types as DataContractSerializer does, and gives each member a protobuf field
/// number for the bindings that need one (gRPC, the fast binding).
/// <para>
/// DataContractSerializer's order (https://learn.microsoft.com/dotnet/framework/wcf/feature-details/data-member-order):
/// base type members first; within a level, by [DataMember(Order)] (unset = -1, so unordered
/// members come first), then by data member name, ordinal. Field numbers are per level (protobuf
/// nests a derived type's members in a sub-message of its base): a level whose members all carry
/// distinct Order values of 1 or more keeps them as field numbers (so a contract written for
/// protobuf keeps its wire); any other level is numbered 1..n in DataContractSerializer's order.
/// Adding a member that sorts before others therefore moves their numbers: docs/contract-model.md.
/// </para>
/// </summary>
public static class DataContractLayout
{
    private const string DefaultNamespacePrefix = "http://schemas.datacontract.org/2004/07/";

    private static readonly ConcurrentDictionary<Type, Lazy<DataTypeDescription>> Described = new();

    private static readonly HashSet<Type> Scalars =
    [
        typeof(string), typeof(decimal), typeof(DateTime), typeof(DateTimeOffset), typeof(TimeSpan),
        typeof(Guid), typeof(Uri), typeof(byte[]), typeof(object),
    ];

    /// <summary>
    /// True for types laid out by members (data contracts and POCO classes and structs); false for
    /// primitives, strings, enums, arrays, collections, streams and the other types
    /// DataContractSerializer writes as one value, and for types it cannot create (no public
    /// parameterless constructor and no [DataContract], such as Task).
    /// </summary>
    public static bool IsDataType(Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        if (type.IsPrimitive || type.IsEnum || type.IsArray || type.IsPointer || type.IsByRef || Scalars.Contains(type)
            || type.IsInterface || type.IsGenericTypeDefinition)
        {
            return false;
        }

        if (Nullable.GetUnderlyingType(type) is not null || typeof(Stream).IsAssignableFrom(type) || typeof(Delegate).IsAssignableFrom(type))
        {
            return false;
        }

        // A plain type needs what DataContractSerializer needs to create one: a public parameterless constructor.
        return IsDataContract(type)
            || (!typeof(IEnumerable).IsAssignableFrom(type) && !type.IsAbstract && (type.IsValueType || type.GetConstructor(Type.EmptyTypes) is not null));
    }

    /// <summary>The type's own level. Throws <see cref="InvalidDataContractException"/> where DataContractSerializer would.</summary>
    public static DataTypeDescription Of(Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        if (!IsDataType(type))
        {
            throw new ArgumentException($"{type} is written as one value, not laid out by members.", nameof(type));
        }

        return Described.GetOrAdd(type, static t => new Lazy<DataTypeDescription>(() => Describe(t))).Value;
    }

    /// <summary>
    /// Every data type reachable from <paramref name="roots"/>: through members, base types,
    /// known types, element types of arrays and collections and generic arguments, in the order
    /// first reached.
    /// </summary>
    public static IReadOnlyList<DataTypeDescription> Reachable(IEnumerable<Type> roots)
    {
        ArgumentNullException.ThrowIfNull(roots);
        var seen = new HashSet<Type>();
        var found = new List<DataTypeDescription>();
        var pending = new Queue<Type>(roots);
        while (pending.TryDequeue(out var type))
        {
            if (!seen.Add(type))
            {
                continue;
            }

            foreach (var inner in Constituents(type))
            {
                pending.Enqueue(inner);
            }

            if (!IsDataType(type))
            {
                continue;
            }

            var description = Of(type);
            found.Add(description);
            if (description.BaseType is { } baseType)
            {
                pending.Enqueue(baseType);
            }

            foreach (var next in description.Members.Select(m => m.Type).Concat(description.KnownTypes))
            {
                pending.Enqueue(next);
            }
        }

        return found;
    }

    /// <summary>The types a value of <paramref name="type"/> is made of without being laid out itself.</summary>
    private static IEnumerable<Type> Constituents(Type type)
    {
        if (type.HasElementType)
        {
            yield return type.GetElementType()!;
        }

        if (type.IsGenericType)
        {
            foreach (var argument in type.GetGenericArguments())
            {
                yield return argument;
            }
        }
    }

    private static bool IsDataContract(Type type) => type.IsDefined(typeof(DataContractAttribute), inherit: false);

    /// <summary>Lays out without the cache (for the tests, as <see cref="ContractLoader"/>'s Read).</summary>
    internal static DataTypeDescription Describe(Type type)
    {
        var contract = type.GetCustomAttribute<DataContractAttribute>(inherit: false);
        var kind = contract is null ? DataTypeKind.Poco : DataTypeKind.DataContract;
        var baseType = type.BaseType is { } b && b != typeof(object) && b != typeof(ValueType) ? b : null;
        if (kind == DataTypeKind.DataContract && baseType is not null && !IsDataContract(baseType) && !baseType.IsDefined(typeof(SerializableAttribute), inherit: false))
        {
            throw new InvalidDataContractException(
                $"Type '{type}' cannot inherit from a type that is not marked with DataContractAttribute or SerializableAttribute. Consider marking the base type '{baseType}' with DataContractAttribute or SerializableAttribute, or removing them from the derived type.");
        }

        var members = (kind == DataTypeKind.DataContract ? DataMembers(type) : PocoMembers(type))
            .OrderBy(static m => m.Order)
            .ThenBy(static m => m.Name, StringComparer.Ordinal)
            .ToList();
        for (var i = 1; i < members.Count; i++)
        {
            if (members[i].Name == members[i - 1].Name)
            {
                throw new InvalidDataContractException(
                    $"Type '{type}' contains two members '{members[i - 1].Member.Name}' and '{members[i].Member.Name}' with the same data member name '{members[i].Name}'. Multiple members with the same name in one type are not supported. Consider changing one of the member names using DataMemberAttribute attribute.");
            }
        }

        var byOrder = members.All(static m => m.Order >= 1) && members.Select(static m => m.Order).Distinct().Count() == members.Count;
        var numbered = members.Select((m, i) => m with { FieldNumber = byOrder ? m.Order : i + 1 }).ToArray();
        return new DataTypeDescription(
            type,
            contract?.Name ?? type.Name,
            contract?.Namespace ?? DefaultNamespacePrefix + type.Namespace,
            kind,
            baseType is not null && IsDataType(baseType) ? baseType : null,
            numbered,
            KnownTypesOf(type));
    }

    private const BindingFlags OwnMembers = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

    private static IEnumerable<DataMemberDescription> DataMembers(Type type)
    {
        foreach (var member in type.GetMembers(OwnMembers))
        {
            if (member.GetCustomAttribute<DataMemberAttribute>() is not { } attribute || MemberType(member) is not { } memberType)
            {
                continue;
            }

            if (member is PropertyInfo { CanRead: false } or PropertyInfo { CanWrite: false } && !IsGetOnlyCollection(member))
            {
                throw new InvalidDataContractException(
                    $"No {(((PropertyInfo)member).CanRead ? "set" : "get")} method for property '{member.Name}' in type '{type}'.");
            }

            yield return new DataMemberDescription(
                attribute.Name ?? member.Name, member, memberType, attribute.Order, attribute.IsRequired, attribute.EmitDefaultValue, FieldNumber: 0);
        }
    }

    private static IEnumerable<DataMemberDescription> PocoMembers(Type type)
    {
        foreach (var member in type.GetMembers(BindingFlags.Instance | BindingFlags.Public | BindingFlags.DeclaredOnly))
        {
            if (member.IsDefined(typeof(IgnoreDataMemberAttribute)) || MemberType(member) is not { } memberType)
            {
                continue;
            }

            var included = member switch
            {
                FieldInfo field => !field.IsInitOnly,
                PropertyInfo property => property.GetIndexParameters().Length == 0
                    && property.GetMethod is { IsPublic: true }
                    && (property.SetMethod is { IsPublic: true } || IsGetOnlyCollection(property)),
                _ => false,
            };
            if (included)
            {
                yield return new DataMemberDescription(member.Name, member, memberType, Order: -1, IsRequired: false, EmitDefaultValue: true, FieldNumber: 0);
            }
        }
    }

    private static Type? MemberType(MemberInfo member) => member switch
    {
        FieldInfo field => field.FieldType,
        PropertyInfo property => property.PropertyType,
        _ => null,
    };

    // DataContractSerializer fills a get-only collection in place (it calls Add on what the getter returns).
    private static bool IsGetOnlyCollection(MemberInfo member) =>
        member is PropertyInfo { CanRead: true, CanWrite: false } property
        && property.PropertyType != typeof(string)
        && typeof(IEnumerable).IsAssignableFrom(property.PropertyType);

    private static Type[] KnownTypesOf(Type type)
    {
        var known = new List<Type>();
        foreach (var attribute in type.GetCustomAttributes<KnownTypeAttribute>(inherit: false))
        {
            if (attribute.Type is { } single)
            {
                known.Add(single);
            }
            else if (attribute.MethodName is { } methodName)
            {
                var method = type.GetMethod(methodName, BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic, Type.EmptyTypes);
                if (method is null || !typeof(IEnumerable<Type>).IsAssignableFrom(method.ReturnType))
                {
                    throw new InvalidDataContractException(
                        $"KnownTypeAttribute attribute on type '{type}' specifies a method named '{methodName}' to provide known types. Static method '{methodName}()' was not found on this type, or it does not return IEnumerable<Type>.");
                }

                known.AddRange((IEnumerable<Type>)method.Invoke(null, null)!);
            }
        }

        return known.ToArray();
    }
}
